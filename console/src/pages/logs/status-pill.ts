/** The pill of a logged request's status: an error from 400 up. */
export const statusPill = (status: number) => `pill ${status >= 400 ? 'pill-error' : 'pill-done'}`;
