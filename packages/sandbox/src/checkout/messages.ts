import type { EnvironmentName } from '../config/environment-config.js';
import type { PurchaseRefusalCode } from '../payments/purchase-history.js';
import type { PaymentFailureReason } from '../records/payment-record.js';
import type { ConsentMethod } from '../shared/service-types.js';
import { html, type SafeHtml } from './html.js';
import type { Locale } from './locale.js';

/** Every text of the checkout in one language. Values interpolated into SafeHtml are escaped. */
export interface Messages {
  /** Both environments are emulated by the mock operator: every page says no money moves. */
  environmentBadge: Record<EnvironmentName, string>;
  pageTitle: string;
  priceOnce(price: string): string;
  trialThen(days: number, recurring: string): string;
  /** Under the offer before and during consent: who pays and how. */
  chargedTo: string;
  /** The same for a free trial: nothing today. */
  trialChargedLater: string;
  /** Under the offer once a payment failed, expired or was cancelled. */
  nothingCharged: string;
  /** Under the offer once a trial started. */
  trialStarted: string;
  numberLabel: string;
  numberHint: SafeHtml;
  numberLocked: string;
  networkLegend: string;
  network: { MOBILE_DATA: string; WIFI: string };
  continue: string;
  cancelPayment: string;
  changeNumber: string;
  refusal: Record<PurchaseRefusalCode, string>;
  failure: Record<PaymentFailureReason, string>;
  noMethodOnWifi: string;
  operatorPage(operator: string): SafeHtml;
  otherMethods: string;
  methodName: Record<ConsentMethod, string>;
  confirmAndPay: string;
  /** The consent button of a free trial: nothing is paid now. */
  confirmTrial: string;
  pinTitle: string;
  pinSentTo(length: number, number: SafeHtml): SafeHtml;
  pinLabel: string;
  pinInboxLink: string;
  pinWrong(attemptsLeft: number): string;
  pinExpired: string;
  pinResend: string;
  /** The PIN's SMS; `terms` is the price line (a free trial: nothing today, then the price). */
  pinSms(code: string, offer: string, terms: string): string;
  heTitle: string;
  heBody(operator: string, number: SafeHtml): SafeHtml;
  moTitle: string;
  moBody(keyword: SafeHtml, shortCode: SafeHtml): SafeHtml;
  moSimulate: string;
  /** An sms: link that opens the phone's messages app with the keyword and short code filled in. */
  moOpenApp: string;
  keywordWrong: string;
  processingTitle: string;
  processingBody: string;
  refresh: string;
  succeededTitle: string;
  failedTitle: string;
  expiredTitle: string;
  canceledTitle: string;
  returnToMerchant: string;
  notFoundTitle: string;
}

/** Arabic counts its nouns: "يوم واحد", "يومين", "7 أيام", "14 يومًا". */
export function arabicDays(days: number): string {
  if (days === 1) return 'يوم واحد';
  if (days === 2) return 'يومين';
  const tens = days % 100;
  if (tens >= 3 && tens <= 10) return `${days} أيام`;
  if (tens >= 11) return `${days} يومًا`;
  return `${days} يوم`;
}

const en: Messages = {
  environmentBadge: {
    sandbox: 'Sandbox: no money moves',
    production: 'Production (emulated): no money moves',
  },
  pageTitle: 'Confirm your payment',
  priceOnce: (price) => `${price}, paid once`,
  trialThen: (days, recurring) => `Free for ${days === 1 ? '1 day' : `${days} days`}, then ${recurring}`,
  chargedTo: 'Charged to your mobile phone bill or prepaid balance.',
  trialChargedLater:
    'Nothing is charged today. When the trial ends, your mobile phone bill or prepaid balance is charged unless you cancel.',
  nothingCharged: 'Nothing was charged.',
  trialStarted: 'Nothing was charged: your free trial has started.',
  numberLabel: 'Your mobile number',
  numberHint: html`International format, e.g. <bdi dir="ltr">+216 20 000 000</bdi>`,
  numberLocked: 'The merchant chose this number.',
  networkLegend: 'Sandbox simulation: how is this phone connected?',
  network: { MOBILE_DATA: 'Mobile data', WIFI: 'Wi-Fi' },
  continue: 'Continue',
  cancelPayment: 'Cancel and return to the merchant',
  changeNumber: 'Use another number',
  refusal: {
    'SBR-102': 'This mobile number is invalid.',
    'SBR-104': 'This mobile operator is not supported for this offer.',
    'RSK-101': 'This line has opted out of carrier billing.',
    'SUB-108': 'This line has already had the free trial of this product.',
    'CAT-109': 'This line already owns this item.',
  },
  failure: {
    INSUFFICIENT_BALANCE: 'Your balance is insufficient.',
    DECLINED: 'The operator declined the payment.',
    ABANDONED: 'You cancelled the payment.',
    CONSENT_FAILED: 'The payment could not be confirmed: too many wrong codes.',
    TRIAL_ALREADY_USED: 'This line has already had the free trial of this product.',
    ALREADY_OWNED: 'This line already owns this item.',
  },
  noMethodOnWifi: 'This operator needs mobile data to confirm. Turn off Wi-Fi and try again.',
  operatorPage: (operator) => html`Confirmation page of ${operator}`,
  otherMethods: 'Other ways to confirm',
  methodName: { PIN: 'Code by SMS', MO_SMS: 'Keyword by SMS', HEADER_ENRICHMENT: 'Network recognition' },
  confirmAndPay: 'Confirm and pay',
  confirmTrial: 'Start the free trial',
  pinTitle: 'Enter the code sent by SMS',
  pinSentTo: (length, number) => html`We sent a ${length}-digit code to ${number}.`,
  pinLabel: 'Code',
  pinInboxLink: 'Open the sandbox SMS inbox',
  pinWrong: (attemptsLeft) => `Wrong code. Attempts left: ${attemptsLeft}.`,
  pinExpired: 'This code has expired. Ask for a new one.',
  pinResend: 'Send a new code',
  pinSms: (code, offer, terms) => `${code} is your code to confirm ${offer} (${terms}). Never share it.`,
  heTitle: 'Your line was recognised',
  heBody: (operator, number) => html`${operator} recognised the line ${number} over mobile data.`,
  moTitle: 'Confirm by SMS',
  moBody: (keyword, shortCode) => html`Send ${keyword} by SMS to ${shortCode}.`,
  moSimulate: 'Send the SMS (simulated)',
  moOpenApp: 'Open my messages app',
  keywordWrong: 'That SMS did not carry the expected keyword.',
  processingTitle: 'Your operator is processing the payment',
  processingBody: 'This page refreshes on its own.',
  refresh: 'Check again',
  succeededTitle: 'Payment confirmed',
  failedTitle: 'Payment failed',
  expiredTitle: 'This payment session has expired',
  canceledTitle: 'This payment was cancelled',
  returnToMerchant: 'Return to the merchant',
  notFoundTitle: 'Payment not found',
};

const fr: Messages = {
  environmentBadge: {
    sandbox: 'Bac à sable : aucun argent n’est débité',
    production: 'Production (émulée) : aucun argent n’est débité',
  },
  pageTitle: 'Confirmez votre paiement',
  priceOnce: (price) => `${price}, payé une fois`,
  trialThen: (days, recurring) =>
    `Gratuit pendant ${days} ${days === 1 ? 'jour' : 'jours'}, puis ${recurring}`,
  chargedTo: 'Débité sur votre facture mobile ou votre solde prépayé.',
  trialChargedLater:
    'Rien n’est débité aujourd’hui. À la fin de l’essai, votre facture mobile ou votre solde prépayé est débité, sauf si vous résiliez.',
  nothingCharged: 'Rien n’a été débité.',
  trialStarted: 'Rien n’a été débité : votre essai gratuit a commencé.',
  numberLabel: 'Votre numéro de mobile',
  numberHint: html`Format international, par ex. <bdi dir="ltr">+216 20 000 000</bdi>`,
  numberLocked: 'Le marchand a choisi ce numéro.',
  networkLegend: 'Simulation du bac à sable : comment ce téléphone est-il connecté ?',
  network: { MOBILE_DATA: 'Données mobiles', WIFI: 'Wi-Fi' },
  continue: 'Continuer',
  cancelPayment: 'Annuler et revenir au marchand',
  changeNumber: 'Utiliser un autre numéro',
  refusal: {
    'SBR-102': 'Ce numéro de mobile n’est pas valide.',
    'SBR-104': 'Cet opérateur mobile n’est pas pris en charge pour cette offre.',
    'RSK-101': 'Cette ligne a refusé la facturation par l’opérateur.',
    'SUB-108': 'Cette ligne a déjà bénéficié de l’essai gratuit de ce produit.',
    'CAT-109': 'Cette ligne possède déjà cet article.',
  },
  failure: {
    INSUFFICIENT_BALANCE: 'Votre solde est insuffisant.',
    DECLINED: 'L’opérateur a refusé le paiement.',
    ABANDONED: 'Vous avez annulé le paiement.',
    CONSENT_FAILED: 'Le paiement n’a pas pu être confirmé : trop de codes erronés.',
    TRIAL_ALREADY_USED: 'Cette ligne a déjà bénéficié de l’essai gratuit de ce produit.',
    ALREADY_OWNED: 'Cette ligne possède déjà cet article.',
  },
  noMethodOnWifi:
    'Cet opérateur demande les données mobiles pour confirmer. Désactivez le Wi-Fi et réessayez.',
  operatorPage: (operator) => html`Page de confirmation de ${operator}`,
  otherMethods: 'Autres façons de confirmer',
  methodName: {
    PIN: 'Code par SMS',
    MO_SMS: 'Mot-clé par SMS',
    HEADER_ENRICHMENT: 'Reconnaissance par le réseau',
  },
  confirmAndPay: 'Confirmer et payer',
  confirmTrial: 'Commencer l’essai gratuit',
  pinTitle: 'Saisissez le code reçu par SMS',
  pinSentTo: (length, number) => html`Nous avons envoyé un code à ${length} chiffres au ${number}.`,
  pinLabel: 'Code',
  pinInboxLink: 'Ouvrir la boîte SMS du bac à sable',
  pinWrong: (attemptsLeft) => `Code incorrect. Essais restants : ${attemptsLeft}.`,
  pinExpired: 'Ce code a expiré. Demandez-en un nouveau.',
  pinResend: 'Envoyer un nouveau code',
  pinSms: (code, offer, terms) =>
    `${code} est votre code pour confirmer ${offer} (${terms}). Ne le partagez jamais.`,
  heTitle: 'Votre ligne a été reconnue',
  heBody: (operator, number) => html`${operator} a reconnu la ligne ${number} via les données mobiles.`,
  moTitle: 'Confirmez par SMS',
  moBody: (keyword, shortCode) => html`Envoyez ${keyword} par SMS au ${shortCode}.`,
  moSimulate: 'Envoyer le SMS (simulation)',
  moOpenApp: 'Ouvrir mon application de messages',
  keywordWrong: 'Ce SMS ne contenait pas le mot-clé attendu.',
  processingTitle: 'Votre opérateur traite le paiement',
  processingBody: 'Cette page se met à jour toute seule.',
  refresh: 'Vérifier à nouveau',
  succeededTitle: 'Paiement confirmé',
  failedTitle: 'Échec du paiement',
  expiredTitle: 'Cette session de paiement a expiré',
  canceledTitle: 'Ce paiement a été annulé',
  returnToMerchant: 'Revenir au marchand',
  notFoundTitle: 'Paiement introuvable',
};

const ar: Messages = {
  environmentBadge: {
    sandbox: 'بيئة تجريبية: لا تُقتطع أي أموال',
    production: 'بيئة الإنتاج (محاكاة): لا تُقتطع أي أموال',
  },
  pageTitle: 'أكّد عملية الدفع',
  // The price ends with the currency's abbreviation mark ("د.ت."): no punctuation may follow it.
  priceOnce: (price) => `دفعة واحدة بقيمة ${price}`,
  trialThen: (days, recurring) => `مجانًا لمدة ${arabicDays(days)}، ثم ${recurring}`,
  chargedTo: 'يُخصم المبلغ من فاتورة هاتفك المحمول أو من رصيدك المسبق الدفع.',
  trialChargedLater:
    'لا يُخصم أي مبلغ اليوم. عند انتهاء الفترة التجريبية يُخصم المبلغ من فاتورة هاتفك المحمول أو من رصيدك المسبق الدفع ما لم تُلغِ الاشتراك.',
  nothingCharged: 'لم يُخصم أي مبلغ.',
  trialStarted: 'لم يُخصم أي مبلغ: بدأت فترتك التجريبية المجانية.',
  numberLabel: 'رقم هاتفك المحمول',
  numberHint: html`بالصيغة الدولية، مثل <bdi dir="ltr">+216 20 000 000</bdi>`,
  numberLocked: 'اختار التاجر هذا الرقم.',
  networkLegend: 'محاكاة تجريبية: كيف يتصل هذا الهاتف بالإنترنت؟',
  network: { MOBILE_DATA: 'بيانات الجوال', WIFI: 'واي فاي' },
  continue: 'متابعة',
  cancelPayment: 'إلغاء والعودة إلى التاجر',
  changeNumber: 'استخدام رقم آخر',
  refusal: {
    'SBR-102': 'رقم الهاتف هذا غير صالح.',
    'SBR-104': 'مشغّل الهاتف هذا غير مدعوم لهذا العرض.',
    'RSK-101': 'ألغى صاحب هذا الخط الدفع عبر فاتورة المشغّل.',
    'SUB-108': 'سبق لهذا الخط الاستفادة من الفترة التجريبية المجانية لهذا المنتج.',
    'CAT-109': 'هذا الخط يملك هذا المنتج بالفعل.',
  },
  failure: {
    INSUFFICIENT_BALANCE: 'رصيدك غير كافٍ.',
    DECLINED: 'رفض المشغّل عملية الدفع.',
    ABANDONED: 'لقد ألغيت عملية الدفع.',
    CONSENT_FAILED: 'تعذّر تأكيد الدفع: عدد كبير من الرموز الخاطئة.',
    TRIAL_ALREADY_USED: 'سبق لهذا الخط الاستفادة من الفترة التجريبية المجانية لهذا المنتج.',
    ALREADY_OWNED: 'هذا الخط يملك هذا المنتج بالفعل.',
  },
  noMethodOnWifi: 'يتطلب التأكيد لدى هذا المشغّل بيانات الجوال. أوقف الواي فاي وحاول مجددًا.',
  operatorPage: (operator) => html`صفحة التأكيد الخاصة بـ ${operator}`,
  otherMethods: 'طرق أخرى للتأكيد',
  methodName: {
    PIN: 'رمز عبر رسالة قصيرة',
    MO_SMS: 'كلمة مفتاحية عبر رسالة قصيرة',
    HEADER_ENRICHMENT: 'التعرّف عبر الشبكة',
  },
  confirmAndPay: 'تأكيد والدفع',
  confirmTrial: 'بدء الفترة التجريبية المجانية',
  pinTitle: 'أدخل الرمز المرسل عبر رسالة قصيرة',
  pinSentTo: (length, number) => html`أرسلنا رمزًا من ${length} أرقام إلى ${number}.`,
  pinLabel: 'الرمز',
  pinInboxLink: 'افتح صندوق الرسائل التجريبي',
  pinWrong: (attemptsLeft) => `رمز خاطئ. المحاولات المتبقية: ${attemptsLeft}.`,
  pinExpired: 'انتهت صلاحية هذا الرمز. اطلب رمزًا جديدًا.',
  pinResend: 'إرسال رمز جديد',
  pinSms: (code, offer, terms) => `${code} هو رمز تأكيد ${offer} (${terms}). لا تشاركه مع أحد.`,
  heTitle: 'تم التعرّف على خطك',
  heBody: (operator, number) => html`تعرّف ${operator} على الخط ${number} عبر بيانات الجوال.`,
  moTitle: 'التأكيد عبر رسالة قصيرة',
  moBody: (keyword, shortCode) => html`أرسل ${keyword} في رسالة قصيرة إلى الرقم ${shortCode}.`,
  moSimulate: 'إرسال الرسالة (محاكاة)',
  moOpenApp: 'فتح تطبيق الرسائل',
  keywordWrong: 'لم تتضمن هذه الرسالة الكلمة المفتاحية المطلوبة.',
  processingTitle: 'يعالج المشغّل عملية الدفع',
  processingBody: 'تتحدّث هذه الصفحة تلقائيًا.',
  refresh: 'تحقّق مجددًا',
  succeededTitle: 'تم تأكيد الدفع',
  failedTitle: 'فشلت عملية الدفع',
  expiredTitle: 'انتهت صلاحية جلسة الدفع هذه',
  canceledTitle: 'أُلغيت عملية الدفع هذه',
  returnToMerchant: 'العودة إلى التاجر',
  notFoundTitle: 'عملية الدفع غير موجودة',
};

const MESSAGES: Record<Locale, Messages> = { en, fr, ar };

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}
