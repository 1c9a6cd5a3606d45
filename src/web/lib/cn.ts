// Joins class names, leaving out the false and empty ones. It does not resolve Tailwind utilities
// that set the same thing: a component's caller adds classes, never restates one the component
// sets (components offer sizes and variants, or leave to the caller what it may change).
import { type ClassValue, clsx } from "clsx";

export const cn = (...inputs: ClassValue[]) => clsx(inputs);
