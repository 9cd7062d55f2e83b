/** Company Profile (spec sections 2 and 5): stat cards, the name and bio form, statistics. */
import { useState, type FormEvent } from 'react';
import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconCalendar, IconCash, IconDeviceFloppy, IconTrendingUp } from '@tabler/icons-react';
import { MAX_BIO_LENGTH, companyBioSchema, companyNameSchema } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatDate, formatWholeDollars } from '../../lib/format';
import { notifyError, notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { ApiTokensCard } from './ApiTokensCard';

function Stat({ label, value, icon }: { label: string; value: string; icon: React.ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Group gap="xs" c="dimmed" mb={4}>
        {icon}
        <Text size="xs" tt="uppercase" fw={600}>
          {label}
        </Text>
      </Group>
      <Text fw={800} fz={22}>
        {value}
      </Text>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
    </Group>
  );
}

export default function ProfilePage() {
  usePageMeta('Company Profile', 'Your company: name, bio and statistics.');
  const { company, isPending, error, noCompany, refetch } = useCompany();
  const [name, setName] = useState('');
  const [bio, setBio] = useState('');

  // The form starts from the company as loaded, and again whenever it is loaded anew (after saving).
  const [formFrom, setFormFrom] = useState<typeof company | undefined>(undefined);
  if (company && company !== formFrom) {
    setFormFrom(company);
    setName(company.name);
    setBio(company.bio ?? '');
  }

  const update = trpc.company.updateProfile.useMutation({
    onSuccess: () => {
      notifySuccess('Profile updated!');
    },
    onError: (caught) => notifyFailure('Update failed', caught, 'Could not save profile changes'),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsedName = companyNameSchema.safeParse(name);
    if (!parsedName.success) {
      notifyError('Validation Error', parsedName.error.issues[0]?.message ?? 'Company name cannot be empty');
      return;
    }
    const parsedBio = companyBioSchema.safeParse(bio);
    if (!parsedBio.success) {
      notifyError('Validation Error', parsedBio.error.issues[0]?.message ?? `Bio must be ${MAX_BIO_LENGTH} characters or less`);
      return;
    }
    update.mutate({ name: parsedName.data, bio: parsedBio.data });
  };

  return (
    <>
      <PageHeader title="Company Profile" subtitle="Your company's identity and statistics" />
      {isPending ? (
        <PageLoader />
      ) : noCompany || !company ? (
        noCompany ? (
          <Text c="dimmed">No company found</Text>
        ) : (
          <QueryError error={error} onRetry={() => void refetch()} />
        )
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat label="Total Cash" value={formatWholeDollars(company.cash)} icon={<IconCash size={16} aria-hidden />} />
            <Stat label="Net Worth" value={formatWholeDollars(company.net_worth)} icon={<IconTrendingUp size={16} aria-hidden />} />
            <Stat label="Founded" value={formatDate(company.founded_at)} icon={<IconCalendar size={16} aria-hidden />} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate>
              <Title order={2} fz="lg" mb="md">
                Edit Profile
              </Title>
              <Stack gap="sm">
                <TextInput label="Company Name" value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={update.isPending} />
                <Textarea
                  label="Bio"
                  description={`${bio.trim().length}/${MAX_BIO_LENGTH} characters`}
                  value={bio}
                  onChange={(event) => setBio(event.currentTarget.value)}
                  autosize
                  minRows={3}
                  maxRows={8}
                  disabled={update.isPending}
                  error={bio.trim().length > MAX_BIO_LENGTH ? `Bio must be ${MAX_BIO_LENGTH} characters or less` : undefined}
                />
                <Group>
                  <Button type="submit" disabled={update.isPending} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
                    {update.isPending ? 'Saving...' : 'Save Changes'}
                  </Button>
                </Group>
              </Stack>
            </Card>
            <Card withBorder padding="lg">
              <Title order={2} fz="lg" mb="md">
                Statistics
              </Title>
              <Stack gap="xs">
                <Row label="Company ID" value={String(company.id).slice(0, 8)} />
                <Row label="Current Cash" value={formatWholeDollars(company.cash)} />
                <Row label="Member Since" value={formatDate(company.founded_at)} />
                <Row label="Account Type" value="Player" />
              </Stack>
            </Card>
          </SimpleGrid>
          <ApiTokensCard />
        </Stack>
      )}
    </>
  );
}
