/** The demo module's front door: seeding a demonstration company (the CLI's `seed` command). */
export { seedDemo } from './demo.service.js';
