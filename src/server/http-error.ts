/** An error with an HTTP status whose message is safe to show to the user. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

export const notFound = (entity: string) => new HttpError(404, `${entity} not found`);
export const badRequest = (message: string, path?: string) => new HttpError(400, message, path ? [{ path, message }] : undefined);
export const conflict = (message: string, path?: string) => new HttpError(409, message, path ? [{ path, message }] : undefined);
export const forbidden = (message = 'You do not have permission to do this') => new HttpError(403, message);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
