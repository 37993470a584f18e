/** The error body every API failure returns. */
export interface ApiErrorBody {
  error: string;
  issues?: { path: string; message: string }[];
}
