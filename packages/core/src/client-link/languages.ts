/**
 * The languages a volunteer may pick for a document-request link: apart from the texts, so the
 * contract's schemas (which check the choice) do not carry every text of the client page.
 */
export const CLIENT_LINK_LANGUAGES = ['en', 'es'] as const;
export type ClientLinkLanguage = (typeof CLIENT_LINK_LANGUAGES)[number];
