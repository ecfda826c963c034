/** Public facts about the product that appear in marketing copy. */
export const SUPPORT_EMAIL = 'support@kinchart.example';
