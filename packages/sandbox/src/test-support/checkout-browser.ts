// The form-driving browser is published in @dcbkit/sandbox/testing; the repo's tests import it from here.
export { type BrowserPage, CheckoutBrowser, type PageForm, parseForms } from '../testing/checkout-browser.js';
