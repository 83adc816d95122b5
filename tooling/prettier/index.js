/** @type {import('prettier').Config} */
export default {
  printWidth: 110,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
};
