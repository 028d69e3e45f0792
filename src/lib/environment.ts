/** The two worlds a key, a seller's data and a console session live in: real sales, or the sandbox. */
export type Environment = 'sandbox' | 'production';
