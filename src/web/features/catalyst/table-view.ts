// Where an admin table is: its page and search (both in the URL), and how to move them.
export interface TableView {
  page: number;
  q: string;
  onPageChange: (page: number) => void;
  onSearch: (q: string) => void;
}
