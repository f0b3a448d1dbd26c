'use client';

import { useState, type ReactNode } from 'react';
import { onAsync } from '@/lib/client/on-async';

/** A dashed area that highlights while something is dragged over it and hands the drop over. */
export function DropZone({ onDrop, testId, className = '', children }: { onDrop: (data: DataTransfer) => void | Promise<void>; testId: string; className?: string; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onAsync(async (e) => {
        e.preventDefault();
        setDragging(false);
        await onDrop(e.dataTransfer);
      })}
      data-testid={testId}
      className={`rounded-lg border-2 border-dashed p-6 text-center text-sm ${dragging ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-zinc-300 dark:border-zinc-700'} ${className}`}
    >
      {children}
    </div>
  );
}
