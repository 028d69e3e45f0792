/** The mail module's front door: the mailer the context holds, and the console's messages. */

export { endpointDisabledMail, inviteMail, mailInBackground } from './console-mail.js';
export { Mailer } from './mailer.js';
