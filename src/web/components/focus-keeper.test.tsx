import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Drawer, Modal } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { renderWithProviders } from '../test/render';
import { notifySuccess } from './notify';
import { DayField } from './day-field';
import { RecordDrawer } from '.';

/** A list row opening a drawer that is mounted only while open (as every list's drawer is), whose Save re-renders its footer. */
function List() {
  const [open, setOpen] = useState<null | 'new' | number>(null);
  return (
    <main>
      <h1>Work orders</h1>
      <table>
        <tbody>
          <tr tabIndex={0} data-testid="row" onClick={() => setOpen(1)} onKeyDown={(e) => e.key === 'Enter' && setOpen(1)}>
            <td>WO-0001</td>
          </tr>
        </tbody>
      </table>
      <Button onClick={() => setOpen('new')}>Add</Button>
      {open !== null && (
        <RecordDrawer
          opened
          onClose={() => setOpen(null)}
          title={open === 'new' ? 'New work order' : `WO-000${open}`}
          tabs={[{ value: 'overview', label: 'Overview', content: <input aria-label="Title" /> }]}
          footer={
            // Saving a new record swaps its footer: the focused Save button leaves the document.
            open === 'new' ? (
              <Button key="create" data-testid="save" onClick={() => setOpen(2)}>
                Save
              </Button>
            ) : (
              <>
                <Button key="delete" color="red">
                  Delete
                </Button>
                <Button key="save" data-testid="save">
                  Save
                </Button>
              </>
            )
          }
        />
      )}
    </main>
  );
}

describe('focus that stays', () => {
  it('returns to the row that opened a drawer when the drawer closes and unmounts', async () => {
    const user = userEvent.setup();
    renderWithProviders(<List />);
    const row = screen.getByTestId('row');
    row.focus();
    await user.keyboard('{Enter}');
    const close = await screen.findByRole('button', { name: 'Close' });
    await waitFor(() => expect(document.activeElement).not.toBe(row));
    await user.click(close);
    await waitFor(() => expect(document.activeElement).toBe(row));
  });

  it('stays in the drawer when a new record is saved and its footer is re-rendered', async () => {
    const user = userEvent.setup();
    renderWithProviders(<List />);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(await screen.findByTestId('save'));
    await waitFor(() => expect(screen.getByTestId('drawer-title')).toHaveTextContent('WO-0002'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('save')));
    expect(document.activeElement).not.toBe(document.body);
  });

  it('lands inside a plain drawer when the focused control goes away (Accept replacing its form)', async () => {
    function Accept() {
      const [accepted, setAccepted] = useState(false);
      return (
        <Drawer opened onClose={() => undefined} title="Request R-1">
          {accepted ? <p>Accepted</p> : <Button onClick={() => setAccepted(true)}>Accept</Button>}
        </Drawer>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(<Accept />);
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    await screen.findByText('Accepted');
    await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
  });

  it('names every close button: drawers, dialogs and toasts, in the reader language', async () => {
    renderWithProviders(
      <>
        <Modal opened onClose={() => undefined} title="A dialog">
          x
        </Modal>
        <Drawer opened onClose={() => undefined} title="A drawer">
          y
        </Drawer>
      </>,
    );
    notifySuccess('Saved');
    await screen.findByText('Saved');
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Close' })).toHaveLength(3));
  });

  it('Escape with a date picker open closes the picker only; Enter in a date box confirms the day, not the form', async () => {
    let submitted = 0;
    function Form() {
      const form = useForm<{ day: string | null }>({ defaultValues: { day: null } });
      return (
        <Modal opened onClose={() => (submitted = -100)} title="Plan">
          <form onSubmit={form.handleSubmit(() => (submitted += 1))}>
            <DayField form={form} name="day" label="Start" testId="day" required={false} />
            <span data-testid="value">{form.watch('day') ?? ''}</span>
          </form>
        </Modal>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(<Form />);
    const box = await screen.findByTestId('day');
    await user.click(box);
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).not.toBeNull());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).toBeNull());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(submitted).toBe(0);
    await user.type(box, '15/03/2027{Enter}');
    expect(screen.getByTestId('value')).toHaveTextContent('2027-03-15');
    expect(submitted).toBe(0);
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).toBeNull());
    expect(document.activeElement).toBe(box);
  });
});
