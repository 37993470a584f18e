import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Modal, TextInput } from '@mantine/core';
import { renderWithProviders } from '../test/render';
import { RecordDrawer } from '.';

/** A list's button opening a drawer whose tab opens a dialog (as a picker's "Add New" does). */
function Layers() {
  const [drawer, setDrawer] = useState(false);
  const [dialog, setDialog] = useState(false);
  return (
    <>
      <Button onClick={() => setDrawer(true)}>Open drawer</Button>
      <RecordDrawer
        opened={drawer}
        onClose={() => setDrawer(false)}
        title="WO-1"
        tabs={[{ value: 'overview', label: 'Overview', content: <Button onClick={() => setDialog(true)}>Add New</Button> }]}
      />
      <Modal opened={dialog} onClose={() => setDialog(false)} title="New asset">
        <TextInput label="Asset name" />
      </Modal>
    </>
  );
}

describe('layers and Escape', () => {
  it('closes only the topmost layer, and gives the focus back to what opened each', async () => {
    renderWithProviders(<Layers />);
    const opener = screen.getByRole('button', { name: 'Open drawer' });
    await userEvent.click(opener);
    await userEvent.click(await screen.findByRole('button', { name: 'Add New' }));
    await userEvent.click(await screen.findByLabelText('Asset name'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByLabelText('Asset name')).not.toBeInTheDocument());
    // the drawer stays, and the focus is back on the button that opened the dialog
    expect(screen.getByTestId('drawer-title')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('drawer-title')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
