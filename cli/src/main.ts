import { integer, parse, required } from './args.js';
import { report, UsageError } from './errors.js';
import { replayEvents, resendEvent } from './events.js';
import { HELP } from './help.js';
import { listen } from './listen.js';
import { ListenState, stateDirOf } from './listen-state.js';
import { tailLogs } from './logs-tail.js';
import { openSession } from './session.js';
import type { Terminal } from './terminal.js';
import { assertSandboxKey, listTriggers, trigger } from './trigger.js';

export interface Io extends Omit<Terminal, 'json'> {
  /** Aborted on Ctrl-C: listen and logs tail stop cleanly and the command exits 0. */
  signal: AbortSignal;
}

type Command = (argv: string[], io: Io) => Promise<void>;

const terminal = (io: Io, values: Record<string, unknown>): Terminal => ({
  ...io,
  json: values.json === true,
});
const helped = (io: Io, values: Record<string, unknown>, help: string) => {
  if (values.help) io.out.write(`${help}\n`);
  return values.help === true;
};

const COMMANDS: Record<string, Command> = {
  async listen(argv, io) {
    const help = HELP.listen!;
    const { values, positionals } = parse(
      argv,
      {
        'forward-to': { type: 'string' },
        events: { type: 'string' },
        from: { type: 'string' },
        interval: { type: 'string' },
        'state-dir': { type: 'string' },
      },
      help,
    );
    if (helped(io, values, help)) return;
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`, help);
    const forwardTo = required(values, 'forward-to', help);
    if (!/^https?:\/\/.+/.test(forwardTo)) throw new UsageError('--forward-to must be an http(s) URL', help);
    const from = (values.from as string | undefined) ?? 'now';
    if (from !== 'now' && from !== 'last')
      throw new UsageError(`--from must be now or last, not ${from}`, help);
    const types = (values.events as string | undefined)
      ?.split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const intervalMs = integer(values, 'interval', 250, 50, 60_000, help);
    const session = openSession(values, io.env);
    const state = new ListenState(
      stateDirOf(values['state-dir'] as string | undefined, io.env),
      session.apiKey,
      session.baseUrl,
    );
    const t = terminal(io, values);
    await listen({
      session,
      forwardTo,
      types: types?.length ? types : undefined,
      from,
      intervalMs,
      state,
      terminal: t,
      signal: io.signal,
    });
  },

  async trigger(argv, io) {
    const help = HELP.trigger!;
    const { values, positionals } = parse(
      argv,
      { list: { type: 'boolean' }, endpoint: { type: 'string' } },
      help,
    );
    if (helped(io, values, help)) return;
    if (values.list) return listTriggers(terminal(io, values));
    if (positionals.length !== 1) throw new UsageError('name one event type, such as order.fulfilled', help);
    const session = openSession(values, io.env); // makes no call
    assertSandboxKey(session.apiKey);
    await trigger(terminal(io, values), session, positionals[0]!, {
      endpoint: values.endpoint as string | undefined,
    });
  },

  async logs(argv, io) {
    const help = HELP.logs!;
    const { values, positionals } = parse(
      argv,
      {
        status: { type: 'string' },
        code: { type: 'string' },
        key: { type: 'string' },
        limit: { type: 'string' },
        interval: { type: 'string' },
        'no-follow': { type: 'boolean' },
      },
      help,
    );
    if (helped(io, values, help)) return;
    if (positionals[0] !== 'tail' || positionals.length > 1)
      throw new UsageError('the logs command is `logs tail`', help);
    const status = values.status as string | undefined;
    if (status !== undefined && !/^([1-5]xx|[1-5]\d{2})$/.test(status))
      throw new UsageError('--status is a status (404) or a class (4xx)', help);
    await tailLogs({
      session: openSession(values, io.env),
      terminal: terminal(io, values),
      filters: { status, code: values.code as string | undefined, keyId: values.key as string | undefined },
      limit: integer(values, 'limit', 20, 1, 200, help),
      intervalMs: integer(values, 'interval', 1000, 100, 60_000, help),
      follow: values['no-follow'] !== true,
      signal: io.signal,
    });
  },

  async events(argv, io) {
    const help = HELP.events!;
    const { values, positionals } = parse(
      argv,
      { endpoint: { type: 'string' }, since: { type: 'string' } },
      help,
    );
    if (helped(io, values, help)) return;
    const [action, ...rest] = positionals;
    const endpoint = () => required(values, 'endpoint', help);
    if (action === 'resend' && rest.length === 1) {
      return resendEvent(terminal(io, values), openSession(values, io.env), rest[0]!, endpoint());
    }
    if (action === 'replay' && rest.length === 0) {
      const since = required(values, 'since', help);
      return replayEvents(terminal(io, values), openSession(values, io.env), endpoint(), since);
    }
    throw new UsageError(
      'use `events resend <eventId> --endpoint ID` or `events replay --endpoint ID --since TIME`',
      help,
    );
  },
};

/** Runs one command line and answers the exit code: 0 done, 1 failed, 2 misused. Never throws. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const json = argv.includes('--json');
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined;
      io.out.write(`${HELP[topic && topic in HELP ? topic : 'root']}\n`);
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command '${name}'`, HELP.root!);
    await command(rest, io);
    return 0;
  } catch (error) {
    return report({ ...io, json }, error);
  }
}
