import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="70vh" p="md">
      <Stack align="center" ta="center" data-testid="not-found">
        <Title order={1} fz={72} c="dimmed">
          404
        </Title>
        <Title order={2}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
