/** The docs module's front door: the served OpenAPI documents and the /docs page. */
export { registerDocsPage, registerOpenApiRoute } from './docs.routes.js';
