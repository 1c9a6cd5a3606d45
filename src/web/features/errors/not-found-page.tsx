// The page for an address that leads nowhere (and for a profile that does not exist).
import { ErrorScreen } from "./error-screen.tsx";

export function NotFoundPage() {
  return (
    <ErrorScreen
      statusCode={404}
      title="Page Not Found"
      description="We couldn't find the page you're looking for. It might have been moved, deleted, or never existed."
      back={{ label: "Go Back", onClick: () => history.back() }}
    />
  );
}
