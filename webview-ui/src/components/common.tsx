// Small building blocks shared by the sections, so every button and badge looks the same.

import type { ReactNode } from 'react';

export function Icon({ name, spin = false }: { name: string; spin?: boolean }): ReactNode {
  return <i className={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />;
}

interface ButtonProps {
  children: ReactNode;
  onClick: () => void;
  testId?: string;
  icon?: string;
  secondary?: boolean;
  disabled?: boolean;
  title?: string;
}

export function Button({ children, onClick, testId, icon, secondary = false, disabled = false, title }: ButtonProps): ReactNode {
  return (
    <button
      type="button"
      className={secondary ? 'button secondary' : 'button'}
      data-testid={testId}
      onClick={onClick}
      disabled={disabled}
      title={title}
    >
      {icon ? <Icon name={icon} /> : null}
      <span>{children}</span>
    </button>
  );
}

export function IconButton({
  icon,
  label,
  onClick,
  testId,
  disabled = false,
}: {
  icon: string;
  label: string;
  onClick: () => void;
  testId?: string;
  disabled?: boolean;
}): ReactNode {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={label}
      data-testid={testId}
      onClick={onClick}
      disabled={disabled}
    >
      <Icon name={icon} />
    </button>
  );
}

export function Badge({
  children,
  tone = 'neutral',
  title,
}: {
  children: ReactNode;
  tone?: 'neutral' | 'ok' | 'error' | 'warn' | 'info';
  title?: string;
}): ReactNode {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function Section({
  title,
  icon,
  testId,
  children,
  actions,
}: {
  title: string;
  icon: string;
  testId?: string;
  children: ReactNode;
  actions?: ReactNode;
}): ReactNode {
  return (
    <section className="section" data-testid={testId} aria-label={title}>
      <header className="section-header">
        <h2>
          <Icon name={icon} /> {title}
        </h2>
        {actions ? <div className="section-actions">{actions}</div> : null}
      </header>
      <div className="section-body">{children}</div>
    </section>
  );
}

/** A labelled textarea; `autoFocus` is only used for fields the person just asked to open. */
export function TextArea({
  label,
  value,
  onChange,
  testId,
  rows = 3,
  placeholder,
  autoFocus = false,
  onSubmit,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  rows?: number;
  placeholder?: string;
  autoFocus?: boolean;
  onSubmit?: () => void;
}): ReactNode {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <textarea
        data-testid={testId}
        rows={rows}
        value={value}
        placeholder={placeholder}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter submits, as in VS Code's own input boxes that take several lines.
          if (onSubmit && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSubmit();
          }
        }}
      />
    </label>
  );
}
