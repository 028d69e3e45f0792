// The bare baseline: Fastify answering a constant JSON body, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
process.on('SIGTERM', () => process.exit(0));
