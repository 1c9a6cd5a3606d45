// Keeps a crash inside one region from taking the whole page down.
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "../components/ui/button.tsx";

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("Component Error", error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div
        role="alert"
        className="mx-auto my-12 max-w-lg rounded-2xl border border-border p-8 text-center"
      >
        <h2 className="text-xl font-semibold">Component Error</h2>
        <p className="mt-2 text-muted-foreground">
          Something went wrong in this part of the application.
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => this.setState({ error: null })}>Try Again</Button>
          <Button variant="outline" asChild>
            <Link to="/" onClick={() => this.setState({ error: null })}>
              Home
            </Link>
          </Button>
        </div>
      </div>
    );
  }
}
