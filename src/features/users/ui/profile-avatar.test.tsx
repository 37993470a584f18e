import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { solidImage } from '../../../server/test/images';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { ProfileDialog } from './profile-dialog';

const server = realServer();

/** The avatar tab's hidden file input (user-event told not to filter by `accept`, so the browser check is reached). */
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;

describe('profile dialog: the avatar (on the real server)', () => {
  it("checks the picture first (nothing sent), shows a failed upload's message, then uploads a real one", async () => {
    const session = await server.signIn('worker');
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<ProfileDialog opened onClose={() => {}} />);
    await user.click(await screen.findByTestId('tab-avatar'));

    await user.upload(fileInput(), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByTestId('avatar-error')).toHaveTextContent('Invalid file type. Only JPG, PNG, and WEBP are allowed.');
    expect(session.calls.some((c) => c.method === 'POST')).toBe(false);

    const png = await solidImage('png', 64, 64, '#336699');
    const restore = session.fail('POST /api/user/addProfilePicture', { status: 500, body: { error: 'Internal Server Error' } });
    await user.upload(fileInput(), new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByTestId('avatar-error')).toHaveTextContent('Failed to upload profile picture');
    restore();

    await user.upload(fileInput(), new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('Profile picture updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('avatar-error')).not.toBeInTheDocument());
    expect(session.calls.filter((c) => c.method === 'POST').map((c) => [c.url.pathname, c.status])).toEqual([
      ['/api/user/addProfilePicture', 500],
      ['/api/user/addProfilePicture', 200],
    ]);
    expect((await session.user.get('/api/user/get-app-data')).body.loggedInUser.profilePicture).toMatch(/\.webp\?/);
  });
});
