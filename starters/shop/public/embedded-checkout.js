// The embedded checkout tells its parent page when the subscriber is done; this page then goes to
// the return page, which confirms the payment with the service. Without JavaScript the checkout's
// own link (target="_top") does the same. Only messages from the checkout frame itself count.
const frame = document.querySelector('iframe[data-checkout-origin]');

if (frame instanceof HTMLIFrameElement) {
  const { checkoutOrigin, paymentUid, returnUrl } = frame.dataset;
  window.addEventListener('message', (event) => {
    if (event.origin !== checkoutOrigin || event.source !== frame.contentWindow) return;
    const data = event.data;
    if (typeof data !== 'object' || data === null) return;
    if (data.type !== 'dcb.checkout.result' || data.paymentUid !== paymentUid) return;
    if (returnUrl) window.location.assign(returnUrl);
  });
}
