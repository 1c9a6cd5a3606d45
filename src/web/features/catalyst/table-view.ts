// Where an admin table is: its page, search and filter (all in the URL), and how to move them.
export interface TableView {
  page: number;
  q: string;
  /** The Annotations tab shows only responses FLAGS_FOR_ADMINS people flagged. */
  flagged: boolean;
  onPageChange: (page: number) => void;
  onSearch: (q: string) => void;
  onFlaggedChange: (flagged: boolean) => void;
}
