import { createContext, useContext, useEffect, useRef, useState, type FormEventHandler, type ReactNode, type RefObject } from 'react';
import { Badge, Box, Drawer, Group, LoadingOverlay, ScrollArea, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NoteLogs } from './note-logs';
import { confirmAction } from './confirm';

export interface DrawerTab {
  value: string;
  label: ReactNode;
  content: ReactNode;
  /** A red badge on the tab; the errors tab gets it from `errors` automatically. */
  errorCount?: number;
  hidden?: boolean;
}

export interface RecordDrawerProps<T extends FieldValues = FieldValues> {
  opened: boolean;
  onClose(): void;
  /** The record's display id, or "New …". */
  title: ReactNode;
  /** Next to the title (e.g. a status select when editing). */
  headerRight?: ReactNode;
  /** Tabs of the form area (70%). The first is the Overview. */
  tabs: DrawerTab[];
  /** react-hook-form errors: their count shows as a red badge on `errorTab` (default: the first tab). */
  errors?: FieldErrors<T>;
  errorTab?: string;
  /** The Note Logs tab of the side panel (30%): a record type registered by the feature's service, and the id (null when adding). */
  activity?: { entityType: string; entityId: number | null | undefined };
  /** More side-panel tabs (e.g. Attachments) after Note Logs. */
  sideTabs?: DrawerTab[];
  /** Buttons under the form (Save Changes, Delete …). */
  footer?: ReactNode;
  /** Wraps the form area in a <form> with this submit handler (e.g. form.handleSubmit(save)). */
  onSubmit?: FormEventHandler<HTMLFormElement>;
  loading?: boolean;
  testId?: string;
  /** Shown above the tabs (e.g. useStaleEdit's alert). */
  alert?: ReactNode;
  /**
   * Unsaved changes of the record's form (react-hook-form's `formState.isDirty`): closing (Escape, the close
   * button, a click outside) then asks before discarding them. Sub-forms with their own buttons (labour, parts,
   * stock) are not the record's: they do not count.
   */
  dirty?: boolean;
}

/** Brings the tab a content sits in to the front (null outside a record drawer's tab). */
const RevealTab = createContext<(() => void) | null>(null);
/**
 * For a tab's content that needs to be seen without the user choosing its tab (a signature coming back from the
 * identity provider signs in the Procedure tab): calling it shows that tab, also while the drawer is opening.
 */
export const useRevealOwnTab = () => useContext(RevealTab);

/** Counts the fields in error of a react-hook-form `errors` object (nested arrays and objects included). */
export function countFieldErrors(errors: unknown): number {
  if (!errors || typeof errors !== 'object') return 0;
  const e = errors as Record<string, unknown>;
  if (typeof e.type === 'string' && 'message' in e) return 1;
  return Object.entries(e).reduce((n, [k, v]) => (k === 'ref' ? n : n + countFieldErrors(v)), 0);
}

function TabLabel({ tab, count }: { tab: DrawerTab; count: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <span>{tab.label}</span>
      {count > 0 && (
        <Badge size="xs" color="red" variant="filled" circle data-testid={`tab-errors-${tab.value}`}>
          {count}
        </Badge>
      )}
    </Group>
  );
}

/**
 * Escape closes the topmost layer only: Mantine closes every open modal and drawer on one Escape (a window
 * listener each), so a dialog over the drawer (a picker's "Add New", the discard question) would close the
 * drawer too. The drawer closes when the key comes from inside its own dialog (its focus trap holds the focus
 * while it is on top; a dialog or popover over it takes the focus), and not while a dropdown of it is open.
 */
function useEscapeClosesTopmost(opened: boolean, root: RefObject<HTMLDivElement | null>, close: () => Promise<void>) {
  const latestClose = useRef(close);
  latestClose.current = close;
  useEffect(() => {
    if (!opened) return;
    // Whether the key's target had a dropdown open when the key came: read before React's handlers run (capture),
    // since the combobox closes its dropdown on this very Escape and the attribute is gone by the bubble phase.
    let dropdownOpen = false;
    const onKeyCapture = (event: KeyboardEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      dropdownOpen = target?.getAttribute('data-mantine-stop-propagation') === 'true' || target?.getAttribute('aria-expanded') === 'true';
    };
    const onKey = (event: KeyboardEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
      if (dropdownOpen || target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
      const own = root.current?.querySelector('[role="dialog"]');
      const inside = !!own && target?.closest('[role="dialog"]') === own;
      const alone = (!target || target === document.body) && document.querySelectorAll('[role="dialog"]').length <= 1;
      if (inside || alone) void latestClose.current();
    };
    window.addEventListener('keydown', onKeyCapture, true);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKeyCapture, true);
      window.removeEventListener('keydown', onKey);
    };
  }, [opened, root]);
}

/**
 * The detail drawer of every list: a 70% form area with tabs and a 30% side panel with the Note Logs;
 * the whole screen on phones. No record means "add", a record means "update" (the caller decides).
 */
/**
 * The RecordDrawer props of a drawer editing one record with a form: opened, the unsaved-changes guard, the
 * error badge, submit = `save`, and the Note Logs of the record (`entityId` undefined or null while adding).
 */
export function formDrawerProps<T extends FieldValues>(
  form: { formState: { isDirty: boolean; errors: FieldErrors<T> } },
  save: FormEventHandler<HTMLFormElement> | (() => void),
  entityType: string,
  entityId: number | null | undefined,
) {
  return { opened: true, dirty: form.formState.isDirty, errors: form.formState.errors, onSubmit: save, activity: { entityType, entityId } };
}

export function RecordDrawer<T extends FieldValues = FieldValues>(props: RecordDrawerProps<T>) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const tabs = props.tabs.filter((tab) => !tab.hidden);
  const first = tabs[0]?.value ?? 'overview';
  const [active, setActive] = useState<string>(first);
  // A tab a content asked to show (useRevealOwnTab) wins over the reset to the first tab when the drawer opens.
  const revealed = useRef<string | null>(null);
  const reveal = (value: string) => {
    revealed.current = value;
    setActive(value);
  };
  const sideTabs = [
    ...(props.activity ? [{ value: 'notes', label: t('drawer.noteLogs'), content: <NoteLogs {...props.activity} /> }] : []),
    ...(props.sideTabs ?? []).filter((tab) => !tab.hidden),
  ];
  const [sideActive, setSideActive] = useState<string>(sideTabs[0]?.value ?? 'notes');
  const errorCount = countFieldErrors(props.errors);
  const close = async () => {
    if (props.dirty && !(await confirmAction({ title: t('drawer.discardTitle'), message: t('drawer.discardMessage'), confirmLabel: t('drawer.discard') })))
      return;
    props.onClose();
  };
  const errorTab = props.errorTab ?? first;
  const root = useRef<HTMLDivElement>(null);
  useEscapeClosesTopmost(props.opened, root, close);

  useEffect(() => {
    if (props.opened) {
      setActive(revealed.current ?? first);
      revealed.current = null;
      setSideActive(sideTabs[0]?.value ?? 'notes');
    }
    // reset to the first tabs each time the drawer opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.opened]);

  const main = (
    <Box style={{ flex: phone ? '1 1 auto' : '7 1 0', minWidth: 0, display: 'flex', flexDirection: 'column' }}>
      {props.alert}
      <Tabs value={active} onChange={(v) => v && setActive(v)} keepMounted>
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value} data-testid={`tab-${tab.value}`}>
              <TabLabel tab={tab} count={(tab.errorCount ?? 0) + (tab.value === errorTab ? errorCount : 0)} />
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            <RevealTab.Provider value={() => reveal(tab.value)}>{tab.content}</RevealTab.Provider>
          </Tabs.Panel>
        ))}
      </Tabs>
      {props.footer && (
        <Group justify="flex-end" gap="sm" mt="lg" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {props.footer}
        </Group>
      )}
    </Box>
  );

  return (
    <Drawer
      ref={root}
      closeOnEscape={false}
      opened={props.opened}
      onClose={() => void close()}
      position="right"
      size={phone ? '100%' : '80%'}
      padding="md"
      title={
        <Group gap="md" wrap="wrap">
          <Text fw={700} size="lg" data-testid="drawer-title">
            {/* a record's name is user data: isolated from the page's direction (decision 065) */}
            <bdi>{props.title}</bdi>
          </Text>
          {props.headerRight}
        </Group>
      }
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      scrollAreaComponent={ScrollArea.Autosize}
      data-testid={props.testId ?? 'record-drawer'}
    >
      <LoadingOverlay visible={!!props.loading} zIndex={10} />
      <Box style={{ display: 'flex', flexDirection: phone ? 'column' : 'row', gap: 'var(--mantine-spacing-lg)', alignItems: 'stretch' }}>
        {props.onSubmit ? (
          <form onSubmit={props.onSubmit} noValidate style={{ display: 'contents' }}>
            {main}
          </form>
        ) : (
          main
        )}
        {sideTabs.length > 0 && (
          <Box
            style={{
              flex: phone ? '1 1 auto' : '3 1 0',
              minWidth: 0,
              borderInlineStart: phone ? undefined : '1px solid var(--mantine-color-default-border)',
              paddingInlineStart: phone ? undefined : 'var(--mantine-spacing-md)',
            }}
            data-testid="drawer-side"
          >
            <Tabs value={sideActive} onChange={(v) => v && setSideActive(v)}>
              <Tabs.List>
                {sideTabs.map((tab) => (
                  <Tabs.Tab key={tab.value} value={tab.value}>
                    {tab.label}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {sideTabs.map((tab) => (
                <Tabs.Panel key={tab.value} value={tab.value} pt="md">
                  {tab.content}
                </Tabs.Panel>
              ))}
            </Tabs>
          </Box>
        )}
      </Box>
    </Drawer>
  );
}
