/**
 * Which form a page is, from its text: a rule table of titles, form numbers and tell-tale labels,
 * no model weights. A table is enough because every form we name has a printed title and number
 * fixed by the IRS or the programme; a learned model would add megabytes and still need this
 * table to map its labels to categories. The rules are written against OCR text, so they tolerate
 * what OCR does to print: a dropped hyphen (`W2`), spaces lost or added, `l`/`1` and `O`/`0`.
 */
import type { CategoryTemplate, FixedCategory } from '../domain/categories.js';
import { normaliseText } from './normalise.js';

/** A form the reader can name: a template or a fixed category, named as its category is. */
export type ReadableForm = Exclude<CategoryTemplate, 'Other' | 'Important Notes'> | FixedCategory;

interface FormRule {
  form: ReadableForm;
  /** Each group is one signal; a signal counts once however many of its patterns match. */
  signals: readonly (readonly RegExp[])[];
  /** Signals this form needs before it is named (two: a title alone is sometimes only a mention). */
  needs?: number;
}

// OCR reads `1` as `l`/`I` and `0` as `O` in form numbers; hyphens come out as any dash or none.
const D = '[-‐‑‒–— ]?';
const ONE = '[1lI|]';
/** `099`/`098`/`095` as OCR may read them (`1699`, `1O99`). */
const NINE = '[9g]';
const ZERO = '[0O6]';

/** The rule table: at least the forms of the sixteen templates and the five fixed categories. */
const RULES: readonly FormRule[] = [
  {
    form: 'W-2',
    signals: [
      [/wage\s*and\s*tax\s*statement/],
      [new RegExp(`\\bw${D}2\\b(?!\\s*g)`), new RegExp(`form\\s*w${D}2`)],
      [/employer.?s?\s*identification\s*number/, /wages,?\s*tips/, /social\s*security\s*wages/],
    ],
  },
  {
    form: '1099-NEC',
    signals: [
      [/nonemployee\s*compensation/],
      [new RegExp(`${ONE}${ZERO}${NINE}9${D}nec`)],
      [/payer.?s\s*tin/, /recipient.?s\s*tin/],
    ],
  },
  {
    form: '1099-INT',
    signals: [
      [/interest\s*income/],
      [new RegExp(`${ONE}${ZERO}${NINE}9${D}[i1l|]nt`)],
      [/early\s*withdrawal\s*penalty/, /interest\s*on\s*u\.?s\.?\s*savings/],
    ],
  },
  {
    form: '1099-DIV',
    signals: [
      [/dividends\s*and\s*distributions/],
      [new RegExp(`${ONE}${ZERO}${NINE}9${D}d[i1l|]v`)],
      [/ordinary\s*dividends/, /qualified\s*dividends/, /capital\s*gain\s*distr/],
    ],
  },
  {
    form: '1099-B',
    signals: [
      [/proceeds\s*from\s*broker/, /barter\s*exchange\s*transactions/],
      [new RegExp(`${ONE}${ZERO}${NINE}9${D}b\\b`)],
      [/cost\s*or\s*other\s*basis/, /date\s*sold\s*or\s*disposed/],
    ],
  },
  {
    form: '1095-A',
    signals: [
      [/health\s*insurance\s*marketplace\s*statement/],
      [new RegExp(`${ONE}${ZERO}${NINE}5${D}a\\b`)],
      [
        /marketplace.?assigned\s*policy/,
        /advance\s*payment\s*of\s*premium\s*tax\s*credit/,
        /covered\s*individuals/,
      ],
    ],
  },
  {
    form: '1095-B',
    signals: [
      [/\bhealth\s*coverage\b(?!.{0,40}offer)/],
      [new RegExp(`${ONE}${ZERO}${NINE}5${D}b\\b`)],
      [
        /origin\s*of\s*the\s*health\s*coverage/,
        /responsible\s*individual/,
        /issuer\s*or\s*other\s*coverage\s*provider/,
      ],
    ],
  },
  {
    form: '1095-C',
    signals: [
      [/employer.?provided\s*health\s*insurance\s*offer/],
      [new RegExp(`${ONE}${ZERO}${NINE}5${D}c\\b`)],
      [/offer\s*of\s*coverage/, /employee\s*required\s*contribution/, /applicable\s*large\s*employer/],
    ],
  },
  {
    form: '1098-T',
    signals: [
      [/tuition\s*statement/],
      [new RegExp(`${ONE}${ZERO}${NINE}8${D}t\\b`)],
      [/payments\s*received\s*for\s*qualified\s*tuition/, /scholarships\s*or\s*grants/, /filer.?s\s*name/],
    ],
  },
  {
    form: 'SSA-1099',
    signals: [
      [/social\s*security\s*benefit\s*statement/],
      [new RegExp(`ssa${D}${ONE}${ZERO}${NINE}9`)],
      [/benefits\s*paid\s*in/, /net\s*benefits\s*for/, /benefits\s*repaid\s*to\s*ssa/],
    ],
  },
  {
    form: 'Schedule C Info',
    signals: [
      [/profit\s*or\s*loss\s*from\s*business/],
      [/schedule\s*c\b/],
      [/principal\s*business\s*or\s*profession/, /gross\s*receipts\s*or\s*sales/, /business\s*expenses/],
    ],
  },
  {
    form: '1040-NR Intake',
    signals: [
      [/nonresident\s*alien\s*intake/],
      [new RegExp(`13614${D}nr`), new RegExp(`${ONE}040${D}nr`)],
      [/visa\s*type/, /date\s*of\s*(first\s*)?entry/, /country\s*of\s*(citizenship|residence)/],
    ],
  },
  {
    form: 'Identity Protection PIN',
    signals: [
      [/identity\s*protection\s*(personal\s*identification\s*number|pin)/],
      [/\bip\s*pin\b/, /\bcp\s*0?1a\b/],
      [/six.?digit/, /your\s*(new\s*)?ip\s*pin\s*is/],
    ],
  },
  {
    form: 'Student Intake Form',
    signals: [
      [/student\s*intake\s*form/],
      [/school\s*(name|attended)/, /student\s*id/],
      [/enrollment\s*status/, /(full|half).?time\s*student/, /expected\s*graduation/],
    ],
  },
  {
    form: '13614-C',
    signals: [
      [/intake\s*\/?\s*interview/, /quality\s*review\s*sheet/],
      [new RegExp(`13614${D}c\\b`)],
      [
        /you\s*will\s*need/,
        /part\s*i\b.{0,40}your\s*personal\s*information/,
        /volunteer\s*income\s*tax\s*assistance/,
      ],
    ],
  },
  {
    form: 'Michigan/Locality Intake',
    signals: [
      [/michigan/, /city\s*income\s*tax/, /locality/],
      [/homestead\s*property\s*tax\s*credit/, new RegExp(`mi${D}1040\\s*cr`), /home\s*heating\s*credit/],
      [/intake/, /renters?\s*or\s*homeowner/],
    ],
  },
  {
    form: 'License/Other Identification',
    signals: [
      [/driver.?s?\s*licen[sc]e/, /identification\s*card/, /\bpassport\b/],
      [/\bdln?\b/, /\b4d\b/, /p<[a-z]{3}/, /passport\s*no/],
      [/\bdob\b/, /date\s*of\s*birth/, /\bexp(ires)?\b/, /\bsex\b/, /\bhgt\b/, /\beyes\b/],
    ],
  },
  {
    form: 'Digital Consent Form',
    signals: [
      [/consent\s*to\s*(use|disclose)\s*(of\s*)?tax\s*return\s*information/],
      [new RegExp(`form\\s*${ONE}5080`), /\b15080\b/],
      [/federal\s*law\s*requires\s*this\s*consent/, /you\s*are\s*not\s*required\s*to\s*(sign|complete)/],
    ],
  },
  {
    form: 'Banking Info',
    signals: [
      [/\bvoid\b/, /direct\s*deposit/],
      [/routing\s*(number|no|#)/, /\baba\b/],
      [/account\s*(number|no|#)/, /pay\s*to\s*the\s*order\s*of/],
    ],
  },
];

/** Signals a form needs by default: two (a title and its number, or either with a tell-tale label). */
const DEFAULT_NEEDS = 2;

/**
 * The form `text` is, or undefined when unsure: no form has enough signals, or two forms have the
 * most (a page quoting another form's number is not that form). Silence is the default because a
 * wrong "move to" costs more than none.
 */
export function recogniseForm(text: string): ReadableForm | undefined {
  const page = normaliseText(text);
  const scored = RULES.map((rule) => ({
    form: rule.form,
    needs: rule.needs ?? DEFAULT_NEEDS,
    score: rule.signals.filter((group) => group.some((re) => re.test(page))).length,
    // The title or the form number must be among them: labels alone are shared by many forms.
    named: rule.signals.slice(0, 2).some((group) => group.some((re) => re.test(page))),
  })).filter((s) => s.named && s.score >= s.needs);
  if (scored.length === 0) return undefined;
  const best = Math.max(...scored.map((s) => s.score));
  const top = scored.filter((s) => s.score === best);
  return top.length === 1 ? top[0]?.form : undefined;
}
