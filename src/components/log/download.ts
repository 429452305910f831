// A CSV the desk made in the window, saved as staff's browser saves a download: a Blob and a
// link clicked once (the action log's export and the library server's audit trail).
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the file by then; the URL need not outlive it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
