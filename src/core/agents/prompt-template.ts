// Prompt templates use `{{name}}` placeholders and nothing more: prompts are written by people who
// override agents in .ironbees/agents/, and a template language would be one more thing to learn.

/**
 * Replaces `{{name}}` (spaces allowed inside the braces) with `vars[name]`. Unknown names are left
 * as they are, so a typo shows up in the prompt instead of silently becoming empty.
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
}
