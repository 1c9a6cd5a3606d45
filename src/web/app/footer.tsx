// The site footer: the year's copyright line, Terms & Privacy and Contact.
import { Link } from "wouter";

export function Footer() {
  return (
    <footer className="border-t border-border">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-muted-foreground sm:flex-row">
        {/* The year in UTC, on the server and in every reader's browser alike. */}
        <p>© {new Date().getUTCFullYear()} Prism. All rights reserved.</p>
        <nav aria-label="Footer" className="flex gap-6">
          <Link to="/terms-privacy" className="inline-flex items-center hover:text-foreground">
            Terms & Privacy
          </Link>
          <Link to="/contact" className="inline-flex items-center hover:text-foreground">
            Contact
          </Link>
        </nav>
      </div>
    </footer>
  );
}
