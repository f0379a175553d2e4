// The reason box a rejection opens (a file's or a hunk's): optional text the coder reads, then the
// rejection confirmed or the box closed.

import type { ReactNode } from 'react';
import { Button, TextArea } from './common';

export function RejectForm({
  className,
  label,
  testId,
  confirmTestId,
  confirmLabel,
  value,
  onChange,
  onConfirm,
  onBack,
}: {
  className: string;
  label: string;
  testId: string;
  confirmTestId: string;
  confirmLabel: string;
  value: string;
  onChange: (value: string) => void;
  onConfirm: () => void;
  onBack: () => void;
}): ReactNode {
  return (
    <div className={className}>
      <TextArea label={label} testId={testId} value={value} onChange={onChange} onSubmit={onConfirm} rows={2} autoFocus />
      <div className="row">
        <Button testId={confirmTestId} icon="close" onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button secondary onClick={onBack}>
          Back
        </Button>
      </div>
    </div>
  );
}
