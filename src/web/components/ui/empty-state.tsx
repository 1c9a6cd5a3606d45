// What a list says when it has nothing in it: what is missing, then what will come, framed.
export function EmptyState({ title, description }: { title: string; description: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-border p-12 text-center">
      <p className="text-lg font-medium">{title}</p>
      <p className="mt-2 text-muted-foreground">{description}</p>
    </div>
  );
}
