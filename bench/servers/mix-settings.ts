// What every process of the mixed-load bench runs with, the world's builder and the servers alike:
// the same admin token, quiet logs and webhooks to the bench's plain-HTTP receiver.
export const MIX_SERVER_SETTINGS = {
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
  SDAPI_ALLOW_INSECURE_WEBHOOKS: 'true',
};
