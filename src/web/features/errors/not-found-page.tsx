import { Link, useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Page Not Found | Prism</title>
      <meta name="robots" content="noindex, follow" />
      <p className="prism-gradient-text text-7xl font-bold">404</p>
      <h1 className="mt-4 text-2xl font-semibold">Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">
        We couldn't find the page you're looking for. It might have been moved, deleted, or never
        existed.
      </p>
      <div className="mt-8 flex gap-3">
        <Button variant="outline" onClick={() => navigate(-1)}>
          Go Back
        </Button>
        <Button asChild>
          <Link to="/">Home</Link>
        </Button>
      </div>
    </section>
  );
}
