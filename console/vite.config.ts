import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API at /console (same origin, strict CSP: no inline script or style).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // Always React's production build, even when the build runs under a test runner's NODE_ENV=test.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    // The budget that matters is gzip (250 KB, measured by the bench); minified size only warns.
    chunkSizeWarningLimit: 800,
  },
});
