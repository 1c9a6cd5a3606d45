// The features whose routes the API serves under /api, each given the app's dependencies.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../deps.ts";
import {
  annotationFlagRoutes,
  annotationRepliesRoutes,
  annotationsBulkRoutes,
  annotationsReadRoutes,
  annotationsWriteRoutes,
} from "./annotations/routes.ts";
import { authRoutes } from "./auth/routes.ts";
import {
  catalystFederation,
  catalystReads,
  catalystSilence,
  catalystWrites,
} from "./catalyst/routes.ts";
import { contactRoutes } from "./contact/routes.ts";
import { demoRoutes, diagnosticsRoutes } from "./diagnostics/routes.ts";
import { emailRoutes } from "./email/routes.ts";
import { exploreRoutes } from "./explore/routes.ts";
import { exportRoutes } from "./export/routes.ts";
import { heartsRoutes } from "./hearts/routes.ts";
import { notificationsRoutes } from "./notifications/routes.ts";
import { passwordResetRoutes } from "./password-reset/routes.ts";
import { personCheckRoutes } from "./person-check/routes.ts";
import { photosRoutes } from "./photos/routes.ts";
import { prismsReadRoutes, prismsWriteRoutes } from "./prisms/routes.ts";
import { resonanceRoutes } from "./resonance/routes.ts";
import { settingsRoutes } from "./settings/routes.ts";
import { teamsRoutes } from "./teams/routes.ts";
import { usersRoutes } from "./users/routes.ts";

export const apiFeatures: FastifyPluginAsyncZod<AppDeps>[] = [
  authRoutes,
  usersRoutes,
  settingsRoutes,
  photosRoutes,
  exportRoutes,
  prismsReadRoutes,
  prismsWriteRoutes,
  heartsRoutes,
  notificationsRoutes,
  annotationsReadRoutes,
  annotationsWriteRoutes,
  annotationFlagRoutes,
  annotationsBulkRoutes,
  annotationRepliesRoutes,
  personCheckRoutes,
  contactRoutes,
  exploreRoutes,
  diagnosticsRoutes,
  demoRoutes,
  passwordResetRoutes,
  catalystReads,
  catalystWrites,
  catalystSilence,
  catalystFederation,
  emailRoutes,
  resonanceRoutes,
  teamsRoutes,
];
