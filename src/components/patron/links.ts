// Title pages open in the system browser (main allows https links to known hosts); anything
// else is not offered as a link.
export function isTitlePage(url: string | undefined): url is string {
  return typeof url === 'string' && /^https:\/\/[^\s]+$/i.test(url);
}
