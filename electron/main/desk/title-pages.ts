// Where a title's page on the service may open (issue #24: every title the desk shows keeps its
// link to the service's page, a licence duty). Title pages live on the service's own web site,
// whose host the desk cannot know in advance (it is seldom the API's), so the hosts allowed are
// those the service itself named in a title's `url` that the desk has shown: an https address
// without credentials. Main's window guard opens a link in the system browser only for these
// and the built-in sandbox's (electron/main/app/security.ts), so a page cannot send staff elsewhere.
import { httpsHostOf } from '../../shared/text-rules.ts';

/** A service names few title hosts; a flood of them is not title pages. */
const MAX_HOSTS = 20;

export class TitlePages {
  private readonly hosts = new Set<string>();

  /** Notes the host of each https title page the service named. */
  note(urls: Iterable<string | undefined>): void {
    for (const url of urls) {
      const host = url === undefined ? undefined : httpsHostOf(url);
      if (host !== undefined && (this.hosts.size < MAX_HOSTS || this.hosts.has(host))) this.hosts.add(host);
    }
  }

  /** A page on a host the service named for a title. */
  opens(url: string): boolean {
    const host = httpsHostOf(url);
    return host !== undefined && this.hosts.has(host);
  }
}
