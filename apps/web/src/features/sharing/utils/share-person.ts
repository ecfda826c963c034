/** Whom a sharing dialog is about: the person's id and their name as running text ("Mia", "your profile"). */
export interface SharePerson {
  id: string;
  label: string;
}
