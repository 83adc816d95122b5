import type { FormEvent } from 'react';

/**
 * For a form's onSubmit: stops the browser's own submission and returns a reader of the fields by
 * name. Forms stay uncontrolled: the browser keeps what is typed, the flow gets it on submit.
 */
export function submitted(event: FormEvent<HTMLFormElement>): (name: string) => string {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  return (name) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
}
