import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { LoadState } from './load-state';

const texts = { forbidden: 'Only admins can see this', failed: 'Could not load', retry: 'Retry' };

describe('load state', () => {
  it('a loader while pending; a failure with Retry; a refusal without it; nothing once loaded', async () => {
    const onRetry = vi.fn();
    const show = (state: { pending?: boolean; failed?: boolean; forbidden?: boolean }) =>
      renderWithProviders(
        <LoadState pending={!!state.pending} failed={!!state.failed} forbidden={!!state.forbidden} label="Keys" texts={texts} onRetry={onRetry} />,
      );
    let view = show({ pending: true });
    expect(screen.getByLabelText('Keys')).toBeInTheDocument();
    view.unmount();

    view = show({ failed: true });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
    view.unmount();

    view = show({ failed: true, forbidden: true });
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can see this');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    view.unmount();

    show({});
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
