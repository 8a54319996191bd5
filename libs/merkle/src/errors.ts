/** An input the Merkle code cannot encode or read (wrong length, out of range, malformed text). */
export class MerkleInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerkleInputError';
  }
}
