import { Badge, Button, Card, Container, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBox,
  IconChartBar,
  IconCheck,
  IconClipboardCheck,
  IconDeviceMobile,
  IconFileInvoice,
  IconMail,
  IconMapPin,
  IconPhone,
  IconShieldLock,
  IconTool,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

const featureIcons = [IconTool, IconClipboardCheck, IconBox, IconFileInvoice, IconUsersGroup, IconChartBar, IconDeviceMobile, IconShieldLock];
const FEATURE_KEYS = ['workOrders', 'preventive', 'assets', 'procurement', 'teams', 'analytics', 'mobile', 'security'] as const;

function FeatureGrid() {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
      {FEATURE_KEYS.map((key, i) => {
        const Icon = featureIcons[i];
        return (
          <Card key={key} withBorder radius="md" padding="lg">
            <ThemeIcon size={44} radius="md" variant="light">
              <Icon size={24} />
            </ThemeIcon>
            <Text fw={700} mt="md">
              {t(`landing.features.${key}.title`)}
            </Text>
            <Text size="sm" c="dimmed" mt={4}>
              {t(`landing.features.${key}.text`)}
            </Text>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

/** The landing page (/). */
export function LandingPage() {
  const { t } = useTranslation();
  return (
    <>
      <Container size="lg" py={80}>
        <Stack align="center" ta="center" gap="lg" maw={760} mx="auto">
          <Badge size="lg" variant="light">
            {t('landing.badge')}
          </Badge>
          <Title order={1} fz={{ base: 34, sm: 52 }} lh={1.1} data-testid="landing-title">
            {t('landing.heroTitle')}
          </Title>
          <Text size="lg" c="dimmed">
            {t('landing.heroText')}
          </Text>
          <Group>
            <Button size="lg" component={Link} to="/demo-request">
              {t('landing.requestDemo')}
            </Button>
            <Button size="lg" variant="default" component={Link} to="/register">
              {t('landing.startFree')}
            </Button>
          </Group>
        </Stack>
      </Container>
      <Container size="lg" pb={80}>
        <FeatureGrid />
      </Container>
    </>
  );
}

export function FeaturesPage() {
  const { t } = useTranslation();
  return (
    <Container size="lg" py={60}>
      <Stack gap="xs" mb="xl">
        <Title order={1}>{t('landing.nav.features')}</Title>
        <Text c="dimmed" size="lg">
          {t('landing.featuresIntro')}
        </Text>
      </Stack>
      <FeatureGrid />
    </Container>
  );
}

const PLANS = [
  { key: 'starter', price: '0', highlight: false },
  { key: 'team', price: '29', highlight: true },
  { key: 'enterprise', price: null, highlight: false },
] as const;

export function PricingPage() {
  const { t } = useTranslation();
  return (
    <Container size="lg" py={60}>
      <Stack gap="xs" mb="xl" ta="center">
        <Title order={1}>{t('landing.nav.pricing')}</Title>
        <Text c="dimmed" size="lg">
          {t('landing.pricingIntro')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {PLANS.map((plan) => (
          <Card
            key={plan.key}
            withBorder
            radius="md"
            padding="xl"
            style={plan.highlight ? { borderColor: 'var(--mantine-color-indigo-6)', borderWidth: 2 } : undefined}
          >
            <Text fw={700} size="lg">
              {t(`landing.plans.${plan.key}.name`)}
            </Text>
            <Text size="xl" fw={800} mt="sm">
              {plan.price === null ? t('landing.plans.custom') : `$${plan.price}`}
              {plan.price !== null && (
                <Text span size="sm" c="dimmed" fw={400}>
                  {' '}
                  {t('landing.plans.perTechnician')}
                </Text>
              )}
            </Text>
            <Text size="sm" c="dimmed" mt="xs">
              {t(`landing.plans.${plan.key}.text`)}
            </Text>
            <List mt="md" spacing="xs" size="sm" icon={<IconCheck size={16} color="var(--mantine-color-green-6)" />}>
              {(t(`landing.plans.${plan.key}.items`, { returnObjects: true }) as string[]).map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
            <Button
              mt="xl"
              fullWidth
              variant={plan.highlight ? 'filled' : 'default'}
              component={Link}
              to={plan.key === 'enterprise' ? '/contact' : '/register'}
            >
              {plan.key === 'enterprise' ? t('landing.nav.contact') : t('landing.startFree')}
            </Button>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}

export function ContactPage() {
  const { t } = useTranslation();
  const items = [
    { icon: IconMail, label: t('landing.contact.email'), value: 'hello@cmms.example.com' },
    { icon: IconPhone, label: t('landing.contact.phone'), value: '+1 (937) 555-0100' },
    { icon: IconMapPin, label: t('landing.contact.address'), value: '1200 Industrial Parkway, Dayton, OH 45402' },
  ];
  return (
    <Container size="md" py={60}>
      <Title order={1}>{t('landing.nav.contact')}</Title>
      <Text c="dimmed" size="lg" mt="xs" mb="xl">
        {t('landing.contact.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {items.map((i) => (
          <Card key={i.label} withBorder radius="md">
            <ThemeIcon variant="light" size={40} radius="md">
              <i.icon size={22} />
            </ThemeIcon>
            <Text fw={700} mt="sm">
              {i.label}
            </Text>
            <Text size="sm" c="dimmed">
              {i.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Button mt="xl" component={Link} to="/demo-request">
        {t('landing.requestDemo')}
      </Button>
    </Container>
  );
}
