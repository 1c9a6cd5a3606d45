// The browser entry: the query client and the router, mounted on #root.
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { queryClient } from "../lib/query.ts";
import { AppRoutes } from "./routes.tsx";
import "../styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("Prism needs a #root element");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
