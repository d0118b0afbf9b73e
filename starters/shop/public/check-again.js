// The return page while a payment is still pending: read it again every few seconds until it is
// final (the server renders no refresh once it is). A script rather than <meta http-equiv="refresh">,
// which WCAG 2.2.1 counts as a time limit; without JavaScript the "Check again" link does the same.
const seconds = Number(document.currentScript?.dataset.seconds ?? 3);
setTimeout(() => window.location.reload(), Math.max(1, seconds) * 1000);
