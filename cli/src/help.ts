/** The help of every command: `sdapi-seller <command> --help` prints its entry. */
const GLOBAL = `Options of every command:
  --api-key KEY      the seller API key (default: $SDAPI_API_KEY)
  --base-url URL     the service (default: $SDAPI_BASE_URL, else http://localhost:8080)
  --json             one JSON document per line instead of text
  -h, --help         this help`;

export const HELP: Record<string, string> = {
  root: `sdapi-seller: the Seller Distribution API from a seller's terminal

Usage: sdapi-seller <command> [options]

Commands:
  listen       forward your events to a local webhook handler, signed as real deliveries
  trigger      cause a sandbox event with real sandbox calls (sandbox keys only)
  logs tail    follow your request log
  events       resend one event or replay missed ones to a webhook endpoint

Run \`sdapi-seller <command> --help\` for a command's options.

${GLOBAL}`,

  listen: `Usage: sdapi-seller listen --forward-to URL [--events a,b] [--from now|last]

Follows GET /events and POSTs each event to URL exactly as a webhook delivery looks: the
envelope as body, X-Service-Event-Id, X-Service-Signature and the Standard Webhooks headers,
signed with a local secret printed at start (the same for the same key on every run).

  --forward-to URL     your local handler, such as http://localhost:3000/webhooks (required)
  --events a,b         only these event types (default: all)
  --from now|last      now: events from this moment (default); last: resume after the last
                       event forwarded for this key (from now when none was)
  --interval MS        how often to ask for new events when idle (default 250)
  --state-dir DIR      where the resume position is kept (default: $SDAPI_CLI_HOME, else
                       ~/.config/sdapi-seller)

When the handler is down (connection refused, timeout, 502/503/504) the event is retried with
backoff (up to 5 s apart) until it answers: nothing is skipped. Any other answer counts as
delivered and is printed with its status. Ctrl-C stops cleanly; the next --from last starts
after the last event the handler answered.

${GLOBAL}`,

  trigger: `Usage: sdapi-seller trigger <eventType> [--endpoint ID]
       sdapi-seller trigger --list

Performs the real sandbox calls that cause the event, on the sandbox's magic SKUs, and prints
each call with its request id. Sandbox keys (service_sk_sbx_...) only: a production key is
refused before any call.

  --list           what can be triggered, and how
  --endpoint ID    for test.ping: the webhook endpoint to ping (default: your first one)

${GLOBAL}`,

  logs: `Usage: sdapi-seller logs tail [--status 4xx] [--code CODE] [--key ID] [--no-follow]

Prints your recent API requests (this key's environment), then follows new ones as they are
made: time, method, path, status, duration, request id, and the error code of a failure.

  --status S     a status (404) or a class (4xx)
  --code CODE    an ApiError code, such as VALIDATION_FAILED
  --key ID       requests made by this API key id
  --limit N      how many recent requests to show first (default 20, at most 200)
  --interval MS  how often to look for new requests (default 1000)
  --no-follow    print the recent requests and exit

${GLOBAL}`,

  events: `Usage: sdapi-seller events resend <eventId> --endpoint ID
       sdapi-seller events replay --endpoint ID --since TIME

  resend    queues one event to one of your webhook endpoints again, as a new delivery
  replay    queues every event since TIME (RFC 3339) that the endpoint failed or never got

  --endpoint ID    the webhook endpoint (required)
  --since TIME     replay: events created at or after this time, such as 2026-05-01T00:00:00Z

${GLOBAL}`,
};
