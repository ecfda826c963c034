/** Public facts about the product that appear in marketing copy. */
export const PRODUCT_NAME = 'Kinchart';
export const SUPPORT_EMAIL = 'support@kinchart.example';
