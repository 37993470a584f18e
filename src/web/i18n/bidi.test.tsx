import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { i18n, loadLanguage } from '.';
import { formatMoney } from '../lib/format';
import { RecordDrawer } from '../components/record-drawer';
import { renderWithProviders } from '../test/render';

// Decision 065: user data and formatted values isolated from an Arabic page's direction.
describe('isolated user data in right to left', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('money is one isolated run in Arabic, and unchanged in English', async () => {
    expect(formatMoney(1165.45, 'USD')).not.toMatch(/[\u2068\u2069]/);
    await loadLanguage('ar');
    await i18n.changeLanguage('ar');
    const text = formatMoney(1165.45, 'USD');
    expect(text.startsWith('\u2068')).toBe(true);
    expect(text.endsWith('\u2069')).toBe(true);
  });

  it('a drawer’s title (a record’s name) is isolated', async () => {
    await loadLanguage('ar');
    await i18n.changeLanguage('ar');
    renderWithProviders(
      <RecordDrawer opened onClose={() => undefined} title="Demo Manufacturing Co." tabs={[{ value: 'overview', label: 'x', content: <p>x</p> }]} />,
    );
    const title = await screen.findByTestId('drawer-title');
    expect(title.querySelector('bdi')).toHaveTextContent('Demo Manufacturing Co.');
  });
});
