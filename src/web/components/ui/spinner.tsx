// The spinner that stands in for a page, or a page's region, while it loads.
export function PageSpinner() {
  return (
    <div className="flex justify-center py-24" role="status" aria-label="Loading">
      <span className="size-8 animate-spin rounded-full border-4 border-muted border-t-primary" />
    </div>
  );
}
