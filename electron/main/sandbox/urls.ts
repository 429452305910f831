// Title and cover addresses. `.invalid` never resolves: the sandbox must not send a desk PC
// to somebody else's server.

export function itemUrls(id: number): { url: string; coverImageUrl: string } {
  return {
    url: `https://sandbox.lending-desk.invalid/titles/${id}`,
    coverImageUrl: `https://sandbox.lending-desk.invalid/covers/${id}.jpg`,
  };
}
