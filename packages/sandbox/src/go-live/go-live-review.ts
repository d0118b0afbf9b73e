/**
 * The spec's "not live until approved": a production application gets no access token until its
 * go-live review passed. The sandbox environment approves every application at creation.
 */
export class GoLiveReview {
  private readonly approved: Set<string>;

  constructor(approved: Iterable<string>) {
    this.approved = new Set(approved);
  }

  isLive(clientId: string): boolean {
    return this.approved.has(clientId);
  }

  approve(clientId: string): void {
    this.approved.add(clientId);
  }

  /** Approved client IDs, for the state file. */
  list(): string[] {
    return [...this.approved];
  }
}
