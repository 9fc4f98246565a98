import { useRef } from 'preact/hooks';

/**
 * A button that asks first in a modal dialog naming the object. The dialog is the browser's
 * own <dialog>: focus moves into it, Escape cancels. `name` is the button's accessible name
 * when its text alone (`label`) does not say which object it acts on.
 */
export function ConfirmButton(props: {
  label: string;
  name?: string;
  question: string;
  confirmLabel: string;
  dismissLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'danger' : ''}
        aria-label={props.name}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-label={props.question}>
        <p>{props.question}</p>
        <div class="actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            {props.dismissLabel ?? 'Cancel'}
          </button>
          <button
            type="button"
            class={props.danger ? 'danger' : 'primary'}
            onClick={() => {
              dialog.current?.close();
              props.onConfirm();
            }}
          >
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
