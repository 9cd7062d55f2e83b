/**
 * The sign-in / sign-up screen (spec sections 2, 4, 5, 8). Email and password go to the auth
 * routes with the same-origin cookie; Google navigates to /api/auth/google, which redirects.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Box, Button, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle, IconBuildingFactory2 } from '@tabler/icons-react';
import { MIN_PASSWORD_LENGTH, googleRedirectMessage } from '@marketcraft/shared';
import { usePageMeta } from '../hooks/usePageMeta';
import { HttpError, requestJson } from '../lib/http';
import { applySession, fetchProviders, signIn, signUp } from './session';

type Mode = 'signin' | 'signup';

/**
 * The `?auth_error=` Google's callback redirects back with, removed from the address once read.
 * Only the callback's own texts are shown: the address is anybody's to write (googleRedirectMessage).
 */
function takeRedirectError(): string | null {
  const url = new URL(window.location.href);
  const message = url.searchParams.get('auth_error');
  if (message === null) return null;
  url.searchParams.delete('auth_error');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return googleRedirectMessage(message) ?? 'Google authentication failed';
}

/**
 * The API's sign-in and sign-up schemas, loaded when the player first focuses the form (or submits):
 * they bring zod, which the screen's first paint on a phone does not wait for.
 */
const loadChecks = () => import('./signInChecks');

export function SignInPage() {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Signing up with an email that has an account: the alert offers signing in with it instead.
  const [emailTaken, setEmailTaken] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const isSignUp = mode === 'signup';
  usePageMeta(isSignUp ? 'Create Account' : 'Sign In');

  useEffect(() => {
    const redirectError = takeRedirectError();
    // Read after mount, once: reading rewrites the address (a state initializer may run twice).
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a one-off message from outside React (the address)
    if (redirectError) setError(redirectError);
  }, []);

  const busy = submitting || connecting;

  const toggleMode = () => {
    setMode(isSignUp ? 'signin' : 'signup');
    setError(null);
    setEmailTaken(false);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setEmailTaken(false);
    const { signInInputSchema, signUpInputSchema } = await loadChecks();
    const parsed = (isSignUp ? signUpInputSchema : signInInputSchema).safeParse({ email, password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Authentication failed');
      return;
    }
    setSubmitting(true);
    try {
      const { user } = await (isSignUp ? signUp : signIn)(parsed.data);
      // A new session: nothing cached for an earlier user may show.
      applySession(queryClient, user);
    } catch (caught) {
      setError(caught instanceof HttpError && caught.serverMessage ? caught.serverMessage : 'Authentication failed');
      setEmailTaken(isSignUp && caught instanceof HttpError && caught.status === 409);
      setSubmitting(false);
    }
  };

  const onGoogle = async () => {
    if (busy) return;
    setError(null);
    setConnecting(true);
    try {
      const providers = await fetchProviders();
      if (!providers.google) {
        // The start endpoint explains why (e.g. not configured); show its words.
        await requestJson('GET', '/api/auth/google');
        throw new Error('Google authentication failed');
      }
      window.location.assign('/api/auth/google');
    } catch (caught) {
      setError(caught instanceof HttpError && caught.serverMessage ? caught.serverMessage : 'Google authentication failed');
      setConnecting(false);
    }
  };

  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-default-hover)">
      <Box w="100%" maw={420}>
        <Stack align="center" gap={4} mb="lg">
          <ThemeIcon size={56} radius="xl" variant="gradient" gradient={{ from: 'teal', to: 'blue' }} aria-hidden>
            <IconBuildingFactory2 size={32} />
          </ThemeIcon>
          <Text fw={800} fz={28} component="p" m={0}>
            Marketcraft
          </Text>
          <Text c="dimmed">Master Economics Through Play</Text>
        </Stack>

        <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }}>
          <Title order={1} fz={24} ta="center" mb="md">
            {isSignUp ? 'Create Account' : 'Welcome Back'}
          </Title>

          <Button fullWidth variant="default" leftSection={<IconBrandGoogle size={18} aria-hidden />} onClick={onGoogle} loading={false} disabled={busy}>
            {connecting ? 'Connecting...' : 'Continue with Google'}
          </Button>

          <Divider label="or continue with email" labelPosition="center" my="md" />

          <form onSubmit={onSubmit} onFocus={() => void loadChecks()}>
            <Stack gap="sm">
              <TextInput
                label="Email"
                name="email"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                required
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                disabled={busy}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete={isSignUp ? 'new-password' : 'current-password'}
                placeholder={`At least ${MIN_PASSWORD_LENGTH} characters`}
                required
                minLength={MIN_PASSWORD_LENGTH}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                disabled={busy}
              />
              {error && (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlertCircle aria-hidden />}
                  role="alert"
                  data-testid="auth-error"
                  styles={{ root: { border: '1px solid var(--mantine-color-red-5)' } }}
                >
                  {error}
                  {emailTaken && (
                    <>
                      {' '}
                      <Anchor component="button" type="button" size="sm" onClick={toggleMode} data-testid="sign-in-instead">
                        Sign in with this email instead
                      </Anchor>
                    </>
                  )}
                </Alert>
              )}
              <Button type="submit" fullWidth disabled={busy} loading={false}>
                {submitting ? (isSignUp ? 'Creating Account...' : 'Signing In...') : isSignUp ? 'Create Account' : 'Sign In'}
              </Button>
            </Stack>
          </form>

          <Text ta="center" size="sm" mt="md">
            <Anchor component="button" type="button" onClick={toggleMode} disabled={busy}>
              {isSignUp ? 'Already have an account? Sign in' : "Don't have an account? Sign up"}
            </Anchor>
          </Text>
        </Paper>

        <Text ta="center" size="sm" c="dimmed" mt="lg">
          Join thousands of players competing in real-time
        </Text>
      </Box>
    </Center>
  );
}
