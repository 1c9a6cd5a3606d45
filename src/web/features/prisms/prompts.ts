// Questions that help a member start an empty prism.
export const prismPrompts = [
  "How do you like to receive feedback?",
  "When do you do your best thinking?",
  "What should people know before they disagree with you?",
  "What does a great working day look like for you?",
  "How do you make hard decisions?",
  "What drains your energy, and what restores it?",
  "How do you prefer to be asked for help?",
  "What do you value most in a teammate?",
  "How do you handle a missed deadline?",
  "What is a misunderstanding people often have about you?",
  "How do you like meetings to run?",
  "What are you learning right now?",
  "How do you celebrate a win?",
  "What does trust look like to you at work?",
  "What do you need from a manager?",
] as const;

export function randomPrompt(): string {
  return prismPrompts[Math.floor(Math.random() * prismPrompts.length)] ?? prismPrompts[0];
}
