// The banner that tells admins which services this server lacks, and what members therefore
// cannot do here. Nothing shows while every service is configured.
import { TriangleAlert } from "lucide-react";
import { useSiteServices } from "../auth/auth-queries.ts";

export function MissingServices() {
  const services = useSiteServices();
  if (!services) return null;
  const missing = [
    {
      name: "Google sign-in",
      on: services.googleSignIn,
      effect:
        "Members cannot sign in with Google. To offer it, set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET and restart the server.",
    },
    {
      name: "outgoing mail",
      on: services.outgoingMail,
      effect:
        "Prism cannot send email, so nobody can receive a password reset link. To send email, set SMTP_URL and restart the server.",
    },
  ].filter((service) => !service.on);
  if (missing.length === 0) return null;
  return (
    <section
      aria-labelledby="missing-services"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="missing-services" className="flex items-center gap-2 font-semibold">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        Not configured on this server: {missing.map((service) => service.name).join(", ")}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-6">
        {missing.map((service) => (
          <li key={service.name}>{service.effect}</li>
        ))}
      </ul>
    </section>
  );
}
