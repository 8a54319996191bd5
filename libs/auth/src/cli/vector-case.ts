/** One case of the signing vectors: the request a client signs; the CLI computes its canonical body and message. */
export interface VectorCase {
  name: string;
  method: string;
  path: string;
  query: string;
  timestamp: string;
  raw_body: string | null;
}
