/**
 * Client secrets the dashboard has yet to show. An approval made from the dashboard leaves its
 * secret here and sends the browser back to the dashboard, whose next view takes it: the page
 * shows it once (the spec's "the secret is displayed once"), and a reload finds nothing.
 */
export class PendingSecrets {
  private readonly secrets = new Map<string, string>();

  leave(clientId: string, clientSecret: string): void {
    this.secrets.set(clientId, clientSecret);
  }

  /** The secret left for this application, removed as it is taken; undefined once shown. */
  take(clientId: string): string | undefined {
    const secret = this.secrets.get(clientId);
    this.secrets.delete(clientId);
    return secret;
  }
}
